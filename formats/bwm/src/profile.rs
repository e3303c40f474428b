//! The embedded KotOR material profile and the choice between it and a user's profile.

use std::sync::{Arc, OnceLock};

use walkmesh_core::MaterialProfile;

/// Engine name a profile must carry to be used for BWM codes.
pub const ENGINE: &str = "kotor";

/// Text of the embedded profile (`profiles/kotor.ron`).
pub const KOTOR_RON: &str = include_str!("../profiles/kotor.ron");

/// The embedded KotOR profile (parsed once).
pub fn kotor_profile() -> Arc<MaterialProfile> {
    static PROFILE: OnceLock<Arc<MaterialProfile>> = OnceLock::new();
    PROFILE
        .get_or_init(|| {
            // A unit test checks the embedded text; the neutral profile (same codes and
            // walkability) keeps the program working should that ever slip.
            Arc::new(
                MaterialProfile::parse(KOTOR_RON).unwrap_or_else(|_| MaterialProfile::neutral()),
            )
        })
        .clone()
}

/// The user's profile when it is a KotOR one, else the embedded profile.
pub fn choose(user: Option<&Arc<MaterialProfile>>) -> Arc<MaterialProfile> {
    match user {
        Some(profile) if profile.engine.eq_ignore_ascii_case(ENGINE) => profile.clone(),
        _ => kotor_profile(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use walkmesh_core::Material;

    #[test]
    fn embedded_profile_has_recommended_walkability() {
        let profile = MaterialProfile::parse(KOTOR_RON).unwrap();
        assert_eq!(profile.engine, "kotor");
        let walkable: Vec<u32> = (0..31u32)
            .filter(|&code| profile.surface_for_code(code).unwrap().walkable)
            .collect();
        assert_eq!(
            walkable,
            vec![1, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 18, 20, 21, 22, 30]
        );
        for code in 0..31u32 {
            let surface = profile.surface_for_code(code).unwrap();
            assert_eq!(u32::from(surface.material.0), code);
        }
        assert_eq!(profile.surface_for_name("snow").unwrap().code, 19);
        assert!(!profile.surface_for_material(Material(16)).unwrap().walkable);
    }

    #[test]
    fn a_users_kotor_profile_replaces_the_embedded_one_and_others_do_not() {
        let edited = KOTOR_RON.replace(
            "(material: \"BottomlessPit\", code: 16, walkable: false",
            "(material: \"BottomlessPit\", code: 16, walkable: true",
        );
        let user = Arc::new(MaterialProfile::parse(&edited).unwrap());
        assert!(choose(Some(&user)).surface_for_code(16).unwrap().walkable);
        let neutral = Arc::new(MaterialProfile::neutral());
        assert_eq!(choose(Some(&neutral)).engine, "kotor");
        assert!(!choose(None).surface_for_code(16).unwrap().walkable);
    }
}
