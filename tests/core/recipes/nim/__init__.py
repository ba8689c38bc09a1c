"""A toy game added by the "add a game" recipe of docs/architecture.md."""
