//! The KotOR material profile and the choice between it and a user's profile. The profile
//! itself lives in core (`core/profiles/kotor.ron`), shared with the MDL reader's walkmesh node;
//! these names stay for callers of this crate.

use std::sync::Arc;

use walkmesh_core::MaterialProfile;

/// Engine name a profile must carry to be used for BWM codes.
pub const ENGINE: &str = walkmesh_core::material::KOTOR_ENGINE;

/// Text of the embedded profile (`core/profiles/kotor.ron`).
pub const KOTOR_RON: &str = walkmesh_core::material::KOTOR_RON;

/// The embedded KotOR profile (parsed once).
pub fn kotor_profile() -> Arc<MaterialProfile> {
    walkmesh_core::material::kotor_profile()
}

/// The user's profile when it is a KotOR one, else the embedded profile.
pub fn choose(user: Option<&Arc<MaterialProfile>>) -> Arc<MaterialProfile> {
    walkmesh_core::material::choose_kotor_profile(user)
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
