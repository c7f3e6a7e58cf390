import sys

try:
    from slimfork.cli import main
except KeyboardInterrupt:  # Ctrl-C before the command line is read: exit as main() does
    sys.stderr.write("interrupted\n")
    raise SystemExit(130) from None

raise SystemExit(main())
