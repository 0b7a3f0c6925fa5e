"""The MERS preview for the staff: the tournament's weight in the EMA's ranking, each ranked
player's base rank and what to fix before sending the results, computed afresh on every
visit (`scoring.selectors.ema`)."""

from __future__ import annotations

from django.views.generic import TemplateView

from scoring.selectors.ema import ema_preview
from tournament.formatting import format_score, score_decimal
from tournament.permissions import TournamentStaffMixin


class EmaPreviewView(TournamentStaffMixin, TemplateView):
    template_name = "scoring/ema.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        preview = ema_preview(self.tournament)
        context["preview"] = preview
        weight = preview.weight
        context["weight"] = score_decimal(weight.total)
        # Halves read 0.5 (0,5 in French), never 1/2.
        context["terms"] = {
            name: score_decimal(getattr(weight, name))
            for name in ("duration", "players", "countries", "qualification")
        }
        context["ranks"] = [
            {
                "line": line,
                "base_rank": score_decimal(line.base_rank),
                "total": format_score(line.total),
            }
            for line in preview.ranked
        ]
        return context
