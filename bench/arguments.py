"""The command lines of the bench scripts: `-h` or `--help` prints a script's usage (its module
documentation), and an argument the script does not know stops it with that usage before
anything runs, since a run takes minutes and would otherwise start silently without it."""
import sys


def check(usage, flags=(), valued=(), argv=None):
    """Exits when `argv` (the command line's arguments by default) holds anything but `flags` and
    `valued` flags each followed by a whole number: with `usage` on stdout and status 0 for
    `-h`/`--help`, else with the argument and `usage` on stderr and status 2."""
    argv = sys.argv[1:] if argv is None else argv
    k = 0
    while k < len(argv):
        arg = argv[k]
        if arg in ("-h", "--help"):
            print(usage)
            sys.exit(0)
        if arg in valued and k + 1 < len(argv) and argv[k + 1].isdigit():
            k += 2
            continue
        if arg not in flags:
            script = sys.argv[0] if sys.argv else "the script"
            sys.stderr.write(f"{script}: unknown or incomplete argument {arg!r}\n\n{usage}")
            sys.exit(2)
        k += 1
