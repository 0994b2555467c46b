"""What the harnesses that run a page's commands as written share
(tests/cli/readme_commands.py, tests/mpi/mpi_doc_commands.py): the page's sh
blocks, and running one command or block, stopping the test at the first
that fails with what it printed."""
import re
import subprocess
import sys


def sh_blocks(path):
    """The text of each ```sh block of a Markdown page."""
    return re.findall(r"```sh\n(.*?)```", open(path, encoding="utf-8").read(), re.S)


def run_or_fail(args, shown, cwd, env, timeout):
    """Runs `args`; prints "ok: SHOWN", or "FAIL" with its output and exits 1."""
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        print(f"FAIL (exit {result.returncode}): {shown}\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}")
        sys.exit(1)
    print(f"ok: {shown}")
