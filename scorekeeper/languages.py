"""The languages the app speaks: the phone's Accept-Language picks among these (the settings and
the phone's offline drawing, static/offline/phone.py, both read this list)."""

LANGUAGES = [
    ("en", "English"),
    ("zh-hans", "简体中文"),
    ("es", "Español"),
    ("fa", "فارسی"),
    ("mn", "Монгол"),
]
