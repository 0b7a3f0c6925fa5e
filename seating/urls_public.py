"""Public pages of seating, mounted in the site's ``public`` namespace by `tournament.urls`."""

from django.urls import path

from seating.views import public

round_ = "t/<slug:slug>/rounds/<int:number>/"

urlpatterns = [
    path("t/<slug:slug>/find-my-seat/", public.FindSeatView.as_view(), name="find_seat"),
    path(
        "t/<slug:slug>/players/<int:registration_id>/calendar.ics",
        public.PlayerCalendarView.as_view(),
        name="player_calendar",
    ),
    path(f"{round_}seating/", public.SeatingView.as_view(), name="seating"),
    path(
        f"{round_}seating/players/",
        public.SeatingView.as_view(by_player=True),
        name="seating_players",
    ),
    path(
        f"{round_}projector/tables/",
        public.SeatingView.as_view(projector=True),
        name="projector_tables",
    ),
    path(
        f"{round_}projector/players/",
        public.SeatingView.as_view(projector=True, by_player=True),
        name="projector_players",
    ),
]
