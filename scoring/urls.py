"""Staff pages of score-sheet entry, mounted at /manage/<slug>/scoring/."""

from django.urls import path

from scoring.views import ema, penalties, referee_calls, rounds, sheets

app_name = "scoring"

table = "round/<int:number>/table/<int:table>/"

urlpatterns = [
    path("", rounds.RoundListView.as_view(), name="rounds"),
    path("standings/", rounds.StandingsView.as_view(), name="standings"),
    path("ema/", ema.EmaPreviewView.as_view(), name="ema"),
    path("round/<int:number>/", rounds.RoundTablesView.as_view(), name="round"),
    path(
        "round/<int:number>/release/",
        rounds.RoundResultsReleaseView.as_view(),
        name="release_round",
    ),
    path(table, sheets.SheetView.as_view(), name="sheet"),
    path(f"{table}hands/", sheets.HandsView.as_view(), name="hands"),
    path(f"{table}confirm/", sheets.SheetConfirmView.as_view(), name="confirm"),
    path(f"{table}correct/", sheets.SheetCorrectView.as_view(), name="correct"),
    path(f"{table}correct/hands/", sheets.HandsCorrectView.as_view(), name="correct_hands"),
    path(f"{table}history/", sheets.SheetHistoryView.as_view(), name="history"),
    path(f"{table}card/", rounds.TableCardReissueView.as_view(), name="reissue_card"),
    path("calls/", referee_calls.RefereeQueueView.as_view(), name="referee_calls"),
    path(
        "calls/<int:pk>/take/",
        referee_calls.RefereeCallActionView.as_view(action="take"),
        name="referee_call_take",
    ),
    path(
        "calls/<int:pk>/resolve/",
        referee_calls.RefereeCallActionView.as_view(action="resolve"),
        name="referee_call_resolve",
    ),
    path("penalties/", penalties.PenaltyListView.as_view(), name="penalties"),
    path(
        "penalties/<int:pk>/cancel/", penalties.PenaltyCancelView.as_view(), name="penalty_cancel"
    ),
    path(
        "players/<int:registration>/disqualify/",
        penalties.DisqualifyView.as_view(),
        name="disqualify",
    ),
]
