"""The web page: a FastAPI app serving a JSON API per game and static pages.

``stratagem serve`` starts it (extra ``web``). :func:`stratagem.web.app.create_app`
builds the app; each game's API is a module ``stratagem.web.<game>`` exposing
``router``, found without registration.
"""
