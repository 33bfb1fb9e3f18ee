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
            Attitude,
            AvoidAgents,
            AvoidParams,
            ColliderObstacle,
            Combine,
            Containment,
            DesiredVelocity,
            Flight,
            FlightParams,
            FlockParams,
            Flocking,
            FlyerAccumulator,
            FlyerAttitude,
            FlyerBehavior,
            FlyerDesiredVelocity,
            FlyerFlocking,
            FlyerFollowPath,
            FlyerForce,
            FlyerNeighborGrid,
            FlyerPath,
            FlyerPosition,
            FlyerPreviousPosition,
            FlyerTarget,
            FlyerVelocity,
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
            SteeringFlightPlugin,
            SteeringFlockingPlugin,
            SteeringFlyer,
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
            WanderDirection,
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

/// Runs `test` on `cases` values of the strategy `strategy` makes, from a
/// fixed seed (the same cases every run), on a thread with room for deeply
/// nested strategies (unoptimized, their frames are large); panics with
/// proptest's report of the smallest failing case.
pub fn fuzz_with_fixed_seed<S>(
    cases: u32,
    seed: u8,
    strategy: impl FnOnce() -> S + Send + 'static,
    test: impl Fn(S::Value) -> Result<(), proptest::test_runner::TestCaseError> + Send + 'static,
) where
    S: proptest::strategy::Strategy,
{
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let result = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            runner
                .run(&strategy(), test)
                .map_err(|error| error.to_string())
        })
        .expect("the fuzzing thread starts")
        .join()
        .expect("the fuzzing thread does not panic outside a case");
    if let Err(error) = result {
        panic!("{error}");
    }
}

/// Floats as a game's bugs make them.
pub fn hostile() -> impl proptest::strategy::Strategy<Value = f32> + Clone {
    use proptest::prelude::*;
    prop_oneof![
        4 => -1500.0f32..1500.0,
        1 => Just(0.0f32),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
        1 => Just(1e30f32),
        1 => Just(-1e30f32),
        1 => Just(f32::MAX),
        1 => Just(-1e-30f32),
    ]
}
