import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournament.demo import DEMO_SLUG
from tournament.models import Tournament, TournamentStaff

DEFAULT_USERNAME = "organiser"
DEFAULT_PASSWORD = "riichi-organiser"


class Command(BaseCommand):
    help = (
        "Make sure an organiser login exists and print it. The password comes from "
        "ORGANISER_PASSWORD, or a development default (never with DEBUG off); an existing "
        "password is never changed."
    )

    def handle(self, *args, **options) -> None:
        username = os.environ.get("ORGANISER_USERNAME", DEFAULT_USERNAME)
        password = os.environ.get("ORGANISER_PASSWORD") or None
        user_model = get_user_model()
        if password is None:
            # The development password is printed in the README: in production it would
            # open the admin, as a superuser, to anyone who has read it.
            if not settings.DEBUG and not user_model.objects.filter(username=username).exists():
                raise CommandError(
                    f"Set ORGANISER_PASSWORD to create the login {username}: with DEBUG off "
                    "the development password is not used."
                )
            password = DEFAULT_PASSWORD
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
