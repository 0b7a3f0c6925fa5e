"""The organisers' seating pages and the head referee's winds pages, mounted at
/manage/<slug>/seating/."""

from django.urls import path

from seating.views import organiser, referee

app_name = "seating"

run = "runs/<int:run>/"
winds = "rounds/<int:number>/winds/"

urlpatterns = [
    path("", organiser.OverviewView.as_view(), name="overview"),
    path("generate/", organiser.GenerateView.as_view(), name="generate"),
    path("swiss/", organiser.SwissView.as_view(), name="swiss"),
    path("substitutes/", organiser.SubstitutesView.as_view(), name="substitutes"),
    path(run, organiser.RunView.as_view(), name="run"),
    path(f"{run}progress/", organiser.RunProgressView.as_view(), name="run_progress"),
    path(f"{run}swap/", organiser.RunSwapView.as_view(), name="run_swap"),
    path(f"{run}apply/", organiser.RunApplyView.as_view(), name="run_apply"),
    path(f"{run}discard/", organiser.RunDiscardView.as_view(), name="run_discard"),
    path(winds, referee.WindsView.as_view(), name="winds"),
    path(f"{winds}even-out/", referee.WindsRebalanceView.as_view(), name="winds_rebalance"),
    path(
        f"{winds}table/<int:table>/", referee.SeatCorrectionView.as_view(), name="seat_correction"
    ),
]
