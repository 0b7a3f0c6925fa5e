"""One-time login links for invited officials (the login card's QR code).

An official invited by an organiser gets an account without a password and a link that logs
them in once, then asks them to choose their password: nobody has to type or hand over a
password at the welcome desk, and the site sends no mail. The link is Django's
password-reset token (a keyed hash, nothing stored) made with a salt of its own and over
the account's password, last login and active flag: the first login moves the last login,
so the link stops working once used, and it expires after LOGIN_LINK_DAYS anyway.

A link is given only for an account that has no password yet and whose roles are all in
tournaments the organiser runs, so an organiser never gets a way into someone else's
account (docs/security.md, "Passwords").
"""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import base36_to_int, urlsafe_base64_decode, urlsafe_base64_encode

from tournament.models import Tournament, TournamentStaff

#: How long a login link works when nobody uses it: the days before an event.
LOGIN_LINK_DAYS = 3


class LoginLinkTokens(PasswordResetTokenGenerator):
    key_salt = "tournament.login_links.LoginLinkTokens"

    def _make_hash_value(self, user, timestamp: int) -> str:
        return f"{super()._make_hash_value(user, timestamp)}{user.is_active}"

    def check_token(self, user, token: str | None) -> bool:
        """Django's check, and no older than LOGIN_LINK_DAYS (its own timeout is the
        project-wide PASSWORD_RESET_TIMEOUT)."""
        if not super().check_token(user, token):
            return False
        made = base36_to_int(token.split("-")[0])
        return self._num_seconds(self._now()) - made <= LOGIN_LINK_DAYS * 24 * 3600


tokens = LoginLinkTokens()


def may_have_login_link(account, organiser) -> bool:
    """Whether ``organiser`` may be given a login link for ``account``: no password yet, no
    superuser, and no role in a tournament the organiser does not run."""
    if account.is_superuser or account.has_usable_password() or not account.is_active:
        return False
    return not (
        TournamentStaff.objects.filter(user=account)
        .exclude(tournament__in=Tournament.objects.organised_by(organiser))
        .exists()
    )


def login_link_path(account) -> str:
    """The path of a fresh link (every link made works until the first login)."""
    uid = urlsafe_base64_encode(force_bytes(account.pk))
    return reverse("login_link", args=[uid, tokens.make_token(account)])


def login_link_expiry():
    """When a link made now stops working."""
    return timezone.now() + timedelta(days=LOGIN_LINK_DAYS)


def account_of_link(uidb64: str, token: str):
    """The account a link logs in, or None once it is used, expired or altered."""
    try:
        pk = force_str(urlsafe_base64_decode(uidb64))
        account = get_user_model()._default_manager.get(pk=pk)
    except (TypeError, ValueError, OverflowError, get_user_model().DoesNotExist):
        return None
    if (
        not account.is_active
        or account.has_usable_password()
        or not tokens.check_token(account, token)
    ):
        return None
    return account
