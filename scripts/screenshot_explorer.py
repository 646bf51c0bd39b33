"""Take the explorer screenshot shown in the README (docs/explorer.png).

    python3 scripts/screenshot_explorer.py [--db DIR] [--position POS] [--out docs/explorer.png]

Without --db it solves the standard movement phase up to 4 pieces a side into a temporary
directory first (a minute). Needs the web and test extras and Debian's chromium/chromium-driver.
"""

import argparse
import os
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--db")
    ap.add_argument("--position", default="a1,d1,g1,f4/a7,d7,g7,b6 w")
    ap.add_argument("--last", default=None)
    ap.add_argument("--out", default=os.path.join(HERE, "..", "docs", "explorer.png"))
    ap.add_argument("--width", type=int, default=1000)
    ap.add_argument("--height", type=int, default=720)
    args = ap.parse_args()

    from browser import start_browser
    from test_server import start_server

    from morris.core.atomic import write_atomic
    from morris.core.progress import Reporter
    from morris.solving.schedule import solve
    from morris.core.variants import get_variant

    db = args.db
    if db is None:
        db = tempfile.mkdtemp(prefix="morris-shot-")
        solve(db, get_variant("standard"), max_pieces=4, reporter=Reporter())
    base, stop = start_server(db)
    driver = start_browser(args.width, args.height)
    try:
        q = {"position": args.position}
        if args.last:
            q["last"] = args.last
        driver.get(f"{base}/?" + urllib.parse.urlencode(q))
        write_atomic(args.out, driver.get_screenshot_as_png())
    finally:
        driver.quit()
        stop()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
