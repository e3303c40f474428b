//! Neverwinter Nights 2 terrain files (`.trn`/`.trx`) and their ASWM walkmesh packet.

use walkmesh_core::{Format, Magic};

/// The NWN2 TRN/TRX container.
#[derive(Debug, Default, Clone, Copy)]
pub struct TrxFormat;

impl Format for TrxFormat {
    fn id(&self) -> &'static str {
        "trx"
    }
    fn name(&self) -> &'static str {
        "Neverwinter Nights 2 terrain (TRN/TRX, ASWM walkmesh)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["trx", "trn"]
    }
    fn magic(&self) -> &'static [Magic] {
        &[Magic {
            offset: 0,
            bytes: b"NWN2",
            mask: None,
        }]
    }
}
