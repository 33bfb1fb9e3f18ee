//! What the integration tests share.

/// The names `bevy_reynolds::prelude` exports, read from its source.
pub fn prelude_names() -> Vec<&'static str> {
    let lib = include_str!("../../crates/bevy_reynolds/src/lib.rs");
    let prelude = &lib[lib.find("\npub mod prelude {").expect("the prelude")..];
    let body = &prelude[..prelude.find("\n}").expect("the prelude's end")];
    let mut names: Vec<&str> = body
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| word.starts_with(|c: char| c.is_ascii_uppercase()))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Panics unless `used` holds every name of the prelude.
pub fn assert_uses_the_whole_prelude(used: &[&str]) {
    let missing: Vec<&str> = prelude_names()
        .into_iter()
        .filter(|name| !used.contains(name))
        .collect();
    assert!(missing.is_empty(), "not used here: {missing:?}");
}

/// The names given, each used as a type (so that a name two globs export
/// fails to compile), as strings.
macro_rules! used_names {
    ($($name:ident),* $(,)?) => {{
        $(let _ = std::any::type_name::<$name>();)*
        [$(stringify!($name)),*]
    }};
}
pub(crate) use used_names;
