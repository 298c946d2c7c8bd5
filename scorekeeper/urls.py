from django.urls import include, path

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.urls")),
]

# The app's own error pages: translated, in the app's look, with a way back.
handler400 = "scorekeeper.errors.bad_request"
handler403 = "scorekeeper.errors.permission_denied"
handler404 = "scorekeeper.errors.page_not_found"
handler500 = "scorekeeper.errors.server_error"
