def red(text):
    return f"[red]{text}[/red]"


def _reset():
    return "[/]"
