from slimfork.cli import main

raise SystemExit(main())
