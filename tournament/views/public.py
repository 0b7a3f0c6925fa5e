"""Pages anyone may read, without logging in. Hidden tournaments answer 404."""

from django.shortcuts import get_object_or_404
from django.views.generic import DetailView, ListView

from tournament.models import Tournament


class PublicTournamentMixin:
    """Resolves the tournament from the URL; a hidden one is a 404 for everyone but its staff."""

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            queryset = Tournament.objects.all()
            user = self.request.user
            if not user.is_authenticated:
                queryset = queryset.public()
            elif not user.is_superuser:
                queryset = queryset.public() | Tournament.objects.for_staff(user)
            self._tournament = get_object_or_404(queryset.distinct(), slug=self.kwargs["slug"])
        return self._tournament


class HomeView(ListView):
    template_name = "public/home.html"
    context_object_name = "tournaments"

    def get_queryset(self):
        return Tournament.objects.public()


class TournamentView(PublicTournamentMixin, DetailView):
    template_name = "public/tournament.html"
    context_object_name = "tournament"

    def get_object(self, queryset=None) -> Tournament:
        return self.get_tournament()
