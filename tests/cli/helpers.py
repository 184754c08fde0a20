"""Run `harp` in-process: (exit code, stdout, stderr)."""

from harp_desktop.cli import main


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err
