"""Staff pages of seating, mounted at /manage/<slug>/seating/."""

app_name = "seating"
urlpatterns: list = []
