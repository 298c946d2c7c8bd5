from django.urls import path

from games import views

urlpatterns = [
    path("", views.home, name="home"),
    path("new/<slug:slug>/", views.new_match, name="new_match"),
    path("m/<str:public_id>/", views.match_page, name="match"),
    path("m/<str:public_id>/rounds/", views.round_create, name="round_create"),
    path("m/<str:public_id>/preview/", views.round_preview, name="round_preview"),
    path("m/<str:public_id>/rounds/<int:number>/", views.round_edit, name="round_edit"),
    path("m/<str:public_id>/rounds/<int:number>/delete/", views.round_delete, name="round_delete"),
    path("m/<str:public_id>/close/", views.match_close, name="match_close"),
]
