"""The app's name: in the title bar, the About box, and as QSettings' application and organisation."""

APP_NAME = "Autograd Playground"
