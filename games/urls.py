from django.urls import path

from games import offline, records, season, seats, signing, tables, views

STREAMS = {
    "match": {"kind": "match", "link": "public_id"},
    "watch": {"kind": "match", "link": "watch_id"},
    "table": {"kind": "table", "link": "public_id"},
    "table_watch": {"kind": "table", "link": "watch_id"},
}

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("phone/", signing.name_phone, name="name_phone"),
    path("new/<slug:slug>/", views.new_match, name="new_match"),
    path("w/<str:watch_id>/", views.watch_page, name="watch"),
    path("live/<str:watch_id>/", views.live, name="live"),
    path("m/<str:public_id>/", views.match_page, name="match"),
    path("m/<str:public_id>/live/", views.score_live, name="score_live"),
    # Live streams (games/stream.py holds them on the event loop; Django answers the others).
    path("m/<str:token>/stream", views.no_stream, STREAMS["match"], name="match_stream"),
    path("w/<str:token>/stream", views.no_stream, STREAMS["watch"], name="watch_stream"),
    path("t/<str:token>/stream", views.no_stream, STREAMS["table"], name="table_stream"),
    path(
        "tw/<str:token>/stream", views.no_stream, STREAMS["table_watch"], name="table_watch_stream"
    ),
    path("m/<str:public_id>/share/", views.share, name="share"),
    path("m/<str:public_id>/share/replace/", views.share_replace, name="share_replace"),
    path("m/<str:public_id>/history/", views.history, name="history"),
    path("m/<str:public_id>/setup/", views.match_setup, name="match_setup"),
    path("m/<str:public_id>/setup/<int:pk>/undo/", views.match_setup_undo, name="match_setup_undo"),
    # Both score links in the path: the match's form adds its new names to its table.
    path(
        "m/<str:public_id>/setup/t/<str:table_id>/",
        views.table_match_setup,
        name="table_match_setup",
    ),
    path("m/<str:public_id>/rounds/", views.round_create, name="round_create"),
    path("m/<str:public_id>/preview/", views.round_preview, name="round_preview"),
    path("m/<str:public_id>/rounds/<int:number>/", views.round_edit, name="round_edit"),
    path("m/<str:public_id>/rounds/<int:number>/delete/", views.round_delete, name="round_delete"),
    path("m/<str:public_id>/changes/<int:pk>/undo/", views.round_undo, name="round_undo"),
    path(
        "m/<str:public_id>/rounds/<int:number>/restore/", views.round_restore, name="round_restore"
    ),
    path("m/<str:public_id>/close/", views.match_close, name="match_close"),
    path("m/<str:public_id>/join/", seats.join, name="match_join"),
    path("m/<str:public_id>/leave/", seats.leave, name="match_leave"),
    path("matches/", records.matches, name="matches"),
    path("import/", records.import_match, name="import_match"),
    path("m/<str:public_id>/rematch/", records.rematch, name="rematch"),
    path("m/<str:public_id>/export.json", records.export_json, name="export_json"),
    path("m/<str:public_id>/export.csv", records.export_csv, name="export_csv"),
    # The regulars' table (games/tables.py): its score link, and its watch link that only reads.
    path("tables/new/", tables.new_table, name="new_table"),
    path("t/<str:public_id>/", tables.table_page, name="table"),
    path("tw/<str:watch_id>/", tables.table_watch, name="table_watch"),
    path("tw/<str:watch_id>/playing", tables.table_playing, name="table_playing"),
    # A season at the table (games/season.py): people, two head to head, every match.
    path("t/<str:public_id>/people/<int:number>/", season.person, name="table_person"),
    path("tw/<str:watch_id>/people/<int:number>/", season.watch_person, name="table_watch_person"),
    path("t/<str:public_id>/people/<int:number>/vs/<int:other>/", season.pair, name="table_pair"),
    path(
        "tw/<str:watch_id>/people/<int:number>/vs/<int:other>/",
        season.watch_pair,
        name="table_watch_pair",
    ),
    path("t/<str:public_id>/matches/", season.matches, name="table_matches"),
    path("tw/<str:watch_id>/matches/", season.watch_matches, name="table_watch_matches"),
    path("t/<str:public_id>/new/<slug:slug>/", tables.table_new_match, name="table_new_match"),
    path("t/<str:public_id>/take/", tables.table_take, name="table_take"),
    path("t/<str:public_id>/share/", tables.table_share, name="table_share"),
    path(
        "t/<str:public_id>/share/replace/",
        tables.table_share_replace,
        name="table_share_replace",
    ),
    path("t/<str:public_id>/setup/", tables.table_setup, name="table_setup"),
    path("t/<str:public_id>/currency/", tables.table_currency, name="table_currency"),
    path(
        "t/<str:public_id>/setup/<int:pk>/undo/", tables.table_setup_undo, name="table_setup_undo"
    ),
    path("t/<str:public_id>/pay/", tables.table_pay, name="table_pay"),
    path("t/<str:public_id>/paid/<int:pk>/delete/", tables.payment_delete, name="payment_delete"),
    path(
        "t/<str:public_id>/paid/<int:pk>/restore/", tables.payment_restore, name="payment_restore"
    ),
    path("t/<str:public_id>/table.json", records.table_export_json, name="table_export_json"),
    path("t/<str:public_id>/table.csv", records.table_export_csv, name="table_export_csv"),
    # Scoring with no network (games/offline.py).
    path("sw.js", offline.service_worker, name="service_worker"),
    path("offline/manifest.json", offline.manifest_view, name="offline_manifest"),
    path("offline/match/", offline.match_shell, name="offline_match"),
    path("offline/<slug:name>-<slug:digest>.zip", offline.bundle_view, name="offline_bundle"),
    path("m/<str:public_id>/offline.json", offline.state, name="offline_state"),
]
