"""The organisers' seating pages, mounted at /manage/<slug>/seating/."""

from django.urls import path

from seating.views import organiser

app_name = "seating"

run = "runs/<int:run>/"

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
]
