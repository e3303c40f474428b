//! The `walkmesh` command line (work in progress).
