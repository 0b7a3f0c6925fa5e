import os

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournament.demo import DEMO_SLUG
from tournament.models import Tournament, TournamentStaff

DEFAULT_USERNAME = "organiser"
DEFAULT_PASSWORD = "riichi-organiser"


class Command(BaseCommand):
    help = (
        "Make sure an organiser login exists and print it. The password comes from "
        "ORGANISER_PASSWORD, which must pass the password validators, or a development "
        "default (never with DEBUG off); an existing password is never changed."
    )

    def handle(self, *args, **options) -> None:
        username = os.environ.get("ORGANISER_USERNAME", DEFAULT_USERNAME)
        password = os.environ.get("ORGANISER_PASSWORD") or None
        user = get_user_model().objects.filter(username=username).first()
        # An account restored from an archive has no password and has never logged in here:
        # it gets one like a new login. One that logged in and has none was disabled by an
        # admin, and stays so.
        needs_password = user is None or (
            not user.has_usable_password() and user.last_login is None
        )
        if needs_password and password is None and not settings.DEBUG:
            # The development password is printed in the README: in production it would
            # open the admin, as a superuser, to anyone who has read it.
            raise CommandError(
                f"Set ORGANISER_PASSWORD to give the login {username} a password: with DEBUG "
                "off the development password is not used."
            )
        chosen, password = password is not None, password or DEFAULT_PASSWORD
        if needs_password:
            user = user or get_user_model()(username=username)
            if chosen:
                # A superuser's password, checked as the admin's forms check one ("1" was
                # taken). The development one is the README's, for a laptop only.
                try:
                    validate_password(password, user)
                except ValidationError as error:
                    raise CommandError(
                        "ORGANISER_PASSWORD is refused: " + " ".join(error.messages)
                    ) from error
            user.is_staff = user.is_superuser = True
            user.set_password(password)
            user.save()
        demo = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if demo:
            TournamentStaff.objects.get_or_create(
                tournament=demo, user=user, defaults={"role": TournamentStaff.Role.ORGANISER}
            )
        # The development password is the README's; a chosen one stays out of the deploy's
        # logs, where this line goes.
        if not user.check_password(password):
            shown = "(the one you set)"
        elif password == DEFAULT_PASSWORD:
            shown = password
        else:
            shown = "(ORGANISER_PASSWORD)"
        self.stdout.write(self.style.SUCCESS(f"Organiser login: {username} / {shown}  →  /admin/"))
