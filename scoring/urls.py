"""Staff pages of score-sheet entry, mounted at /manage/<slug>/scoring/."""

app_name = "scoring"
urlpatterns: list = []
