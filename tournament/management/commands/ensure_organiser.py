import os

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from tournament.demo import DEMO_SLUG
from tournament.models import Tournament, TournamentStaff

DEFAULT_USERNAME = "organiser"
DEFAULT_PASSWORD = "riichi-organiser"


class Command(BaseCommand):
    help = (
        "Make sure an organiser login exists and print it. The password comes from "
        "ORGANISER_PASSWORD, or a development default; an existing password is never changed."
    )

    def handle(self, *args, **options) -> None:
        username = os.environ.get("ORGANISER_USERNAME", DEFAULT_USERNAME)
        password = os.environ.get("ORGANISER_PASSWORD", DEFAULT_PASSWORD)
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username=username, defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password(password)
            user.save()
        demo = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if demo:
            TournamentStaff.objects.get_or_create(
                tournament=demo, user=user, defaults={"role": TournamentStaff.Role.ORGANISER}
            )
        shown = password if user.check_password(password) else "(the one you set)"
        self.stdout.write(self.style.SUCCESS(f"Organiser login: {username} / {shown}  →  /admin/"))
