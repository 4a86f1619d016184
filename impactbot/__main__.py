from impactbot.cli import main

raise SystemExit(main())
