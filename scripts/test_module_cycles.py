#!/usr/bin/env python3
"""Tests of scripts/module_cycles.py on designed mini-crates (CI runs this file):

    python3 scripts/test_module_cycles.py
"""

import contextlib
import io
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import module_cycles  # noqa: E402

COMMANDS = {"cli": ("commands",)}


class ModuleCycles(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def crate(self, name, files):
        (self.root / name / "Cargo.toml").parent.mkdir(parents=True, exist_ok=True)
        (self.root / name / "Cargo.toml").write_text(f'[package]\nname = "{name}"\n')
        for rel, text in files.items():
            path = self.root / name / "src" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

    def check(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            bad = module_cycles.check(self.root, COMMANDS)
        lines = out.getvalue().splitlines()
        return bad, lines[:-1]

    def test_a_super_cycle_between_siblings_under_a_parent(self):
        # today's `commands::generate` <-> `commands::generate_area`, with `super::` only.
        self.crate("cli", {
            "lib.rs": "mod commands;\npub fn run() { commands::generate::run() }\n",
            "commands/mod.rs": "pub mod generate;\npub mod generate_area;\n",
            "commands/generate.rs": "pub struct Args;\n"
                                    "pub fn run() { super::generate_area::run() }\n",
            "commands/generate_area.rs": "use super::generate::{Args, run as _};\n"
                                         "pub fn run() {}\n",
        })
        bad, lines = self.check()
        self.assertIn("cli: module cycle commands::generate -> commands::generate_area"
                      " -> commands::generate", lines)
        self.assertIn("cli: command module commands::generate imports command module"
                      " commands::generate_area", lines)
        self.assertEqual(bad, 3, lines)

    def test_a_super_super_cycle_from_nested_modules(self):
        # `a::x::y` reaches `b` by `super::super::super`; `b` uses `a` by a `crate::` group.
        self.crate("core", {
            "lib.rs": "mod a;\nmod b;\n",
            "a/mod.rs": "mod x;\n",
            "a/x/mod.rs": "mod y;\n",
            "a/x/y.rs": "fn f() { super::super::super::b::g() }\n",
            "b.rs": "use crate::{a::{self}, c as _};\npub fn g() {}\n",
        })
        self.assertEqual(self.check(), (1, ["core: module cycle a -> b -> a"]))

    def test_a_crate_cycle_between_top_level_modules(self):
        self.crate("core", {
            "lib.rs": "mod a;\nmod b;\nmod c;\n",
            "a.rs": "// crate::c::h is only a comment\npub fn f() { crate::b::g() }\n",
            "b.rs": "pub fn g() { let s = \"crate::a::f\"; crate::c::h() }\n",
            "c.rs": "pub fn h() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n"
                    "    #[test]\n    fn t() { h(); crate::a::f() }\n}\n",
        })
        self.assertEqual(self.check(), (1, ["core: module cycle a -> b -> c -> a"]))

    def test_acyclic_crates_pass(self):
        # Parent and child use each other (dispatch, shared types, tests): no cycle.
        self.crate("cli", {
            "lib.rs": "mod commands;\nmod shared;\nuse shared::Failure;\n"
                      "fn run() { commands::generate::run() }\n",
            "shared.rs": "pub struct Failure;\n",
            "commands/mod.rs": "pub mod generate;\npub mod lint;\n",
            "commands/generate.rs": "mod area;\nuse crate::shared::Failure;\npub struct Args;\n"
                                    "pub fn run() { self::area::run() }\n",
            "commands/generate/area.rs": "use super::Args;\nuse crate::shared;\n"
                                         "pub fn run() {}\n"
                                         "mod tests { use super::*; use super::super::Args; }\n",
            "commands/lint.rs": "use crate::shared::{self, Failure};\n",
        })
        self.crate("lib", {
            "lib.rs": "pub mod a;\npub mod b;\npub use a::A;\n",
            "a.rs": "pub struct A;\nmod inner { use super::A; use crate::b; }\n",
            "b.rs": "use std::fmt::Write;\n",
        })
        self.assertEqual(self.check(), (0, []))

    def test_a_command_module_importing_another_command_is_found(self):
        self.crate("cli", {
            "lib.rs": "mod commands;\n",
            "commands/mod.rs": "pub mod area;\npub mod lint;\n",
            "commands/area.rs": "pub fn open_rooms() {}\n",
            "commands/lint/mod.rs": "mod area;\n",
            "commands/lint/area.rs": "use crate::commands::area::open_rooms;\n",
        })
        self.assertEqual(self.check(), (1, [
            "cli: command module commands::lint imports command module commands::area"]))


if __name__ == "__main__":
    unittest.main()
