from impactbot.cli import run

run()
