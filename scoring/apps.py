from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")
