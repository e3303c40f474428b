#!/usr/bin/env python3
"""Tests of scripts/long_functions.py on small fixtures (CI runs this file):

    python3 scripts/test_long_functions.py
"""

import contextlib
import io
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import long_functions  # noqa: E402

LIMIT = 5


def body(lines):
    return "".join(f"    let x{i} = {i};\n" for i in range(lines))


class LongFunctions(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)
        (self.root / "src").mkdir()
        self.allow = self.root / "allow.txt"

    def tearDown(self):
        self.dir.cleanup()

    def write(self, rel, text):
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def check(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bad = long_functions.check(self.root, self.allow, LIMIT)
        return bad, out.getvalue()

    def test_counts_body_lines_between_the_braces(self):
        path = self.write("src/lib.rs", "fn six() {\n" + body(6) + "}\n"
                          "pub(crate) fn five(a: u32)\n    -> u32\n{\n" + body(5) + "}\n")
        found = long_functions.long_functions(path, LIMIT)
        self.assertEqual(found, [("six", 6, 1)])

    def test_an_over_long_function_fails_until_allowed(self):
        self.write("src/lib.rs", "fn table() {\n" + body(9) + "}\n")
        bad, out = self.check()
        self.assertEqual(bad, 1)
        self.assertIn("src/lib.rs:1: fn table has 9 body lines", out)
        self.allow.write_text("# comment\nsrc/lib.rs | table | validator rule list\n")
        self.assertEqual(self.check(), (0, ""))

    def test_a_stale_allowlist_entry_fails(self):
        self.write("src/lib.rs", "fn short() {\n" + body(2) + "}\n")
        self.allow.write_text("src/lib.rs | short | to split (issue 35)\n")
        bad, out = self.check()
        self.assertEqual(bad, 1)
        self.assertIn("no longer over", out)

    def test_a_malformed_allowlist_entry_is_refused(self):
        self.allow.write_text("src/lib.rs | table\n")
        with self.assertRaises(SystemExit):
            self.check()

    def test_braces_in_strings_chars_and_comments_do_not_count(self):
        tricky = (
            "fn tricky<'a>(s: &'a str) -> char {\n"
            "    let _ = \"}}}\"; // }\n"
            "    let _ = r#\"}\"}\"#;\n"
            "    /* } /* nested } */ } */\n"
            "    let _ = b'}';\n"
            "    '}'\n"
            "}\n"
            "fn after() {\n" + body(7) + "}\n"
        )
        path = self.write("src/lib.rs", tricky)
        self.assertEqual(long_functions.long_functions(path, LIMIT), [("after", 7, 8)])

    def test_declarations_without_a_body_are_skipped(self):
        path = self.write("src/lib.rs", "trait T {\n    fn f(&self);\n}\n"
                          "fn g() {\n" + body(6) + "}\n")
        self.assertEqual(long_functions.long_functions(path, LIMIT), [("g", 6, 4)])

    def test_test_code_is_left_out(self):
        self.write("src/lib.rs", "#[cfg(test)]\nmod tests {\n    fn helper() {\n"
                   + body(9) + "    }\n}\n")
        self.write("tests/it.rs", "fn long_test() {\n" + body(9) + "}\n")
        self.write("benches/b.rs", "fn long_bench() {\n" + body(9) + "}\n")
        self.write("build.rs", "fn main() {\n" + body(9) + "}\n")
        self.assertEqual(self.check(), (0, ""))


if __name__ == "__main__":
    unittest.main()
