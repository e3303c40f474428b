//! KotOR binary walkmesh (`BWM V1.0`: `.wok` area, `.pwk` placeable, `.dwk` door).

use walkmesh_core::{Format, Magic};

/// The KotOR BWM format.
#[derive(Debug, Default, Clone, Copy)]
pub struct BwmFormat;

impl Format for BwmFormat {
    fn id(&self) -> &'static str {
        "bwm"
    }
    fn name(&self) -> &'static str {
        "KotOR binary walkmesh (BWM V1.0)"
    }
    fn extensions(&self) -> &'static [&'static str] {
        &["wok", "pwk", "dwk", "bwm"]
    }
    fn magic(&self) -> &'static [Magic] {
        &[Magic {
            offset: 0,
            bytes: b"BWM V1.0",
            mask: None,
        }]
    }
}
