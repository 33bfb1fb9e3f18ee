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

/// Every name of the prelude, each used as a type where this expands (so
/// that a name also in a glob the module imports fails to compile), as
/// strings.
macro_rules! every_prelude_name {
    () => {
        crate::support::used_names![
            AgentHeading,
            AgentPosition,
            AgentPreviousPosition,
            AgentTrail,
            AgentVelocity,
            Arrived,
            AvoidAgents,
            AvoidParams,
            ColliderObstacle,
            Combine,
            Containment,
            DesiredVelocity,
            FlockParams,
            Flocking,
            FollowPath,
            Formation,
            FormationPlace,
            FormationShape,
            FormationState,
            GroundPlane,
            Hide,
            IgnoreObstacles,
            InFormation,
            MeasuredVelocity,
            MovingObstacle,
            Navigate,
            NavigationAreas,
            NavigationGoal,
            NavigationRoute,
            NavigationSettings,
            NavigationStatus,
            NeighborGrid,
            ObstacleHeights,
            ObstacleIndex,
            RadiusFromCollider,
            RouteEnd,
            Stalled,
            SteeringAccumulator,
            SteeringAgent,
            SteeringAgentPlugin,
            SteeringAvian2dPlugin,
            SteeringAvian3dPlugin,
            SteeringBehavior,
            SteeringCrowdPlugin,
            SteeringFlockingPlugin,
            SteeringForce,
            SteeringFormationPlugin,
            SteeringLengthUnit,
            SteeringLevelPlugin,
            SteeringNavigationPlugin,
            SteeringObstacle,
            SteeringParams,
            SteeringPath,
            SteeringPlugins,
            SteeringPriority,
            SteeringSchedule,
            SteeringSeed,
            SteeringSettings,
            SteeringSystems,
            SteeringTarget,
            TakeTurns,
            Unreachable,
            WanderAngle,
            WanderRng,
            Weighted,
            Writeback,
        ]
    };
}
pub(crate) use every_prelude_name;

/// The names given, each used as a type (so that a name two globs export
/// fails to compile), as strings.
macro_rules! used_names {
    ($($name:ident),* $(,)?) => {{
        $(let _ = std::any::type_name::<$name>();)*
        [$(stringify!($name)),*]
    }};
}
pub(crate) use used_names;
