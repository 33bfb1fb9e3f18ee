//! The debug view (feature `render`) draws beside a game's own entities,
//! never over them: switching its bodies off hides what it drew, not the
//! agent or the game's children on it. Headless: Bevy's default plugins
//! with no window and no graphics backend.

use bevy::prelude::*;
use bevy::render::RenderPlugin;
use bevy::render::settings::WgpuSettings;
use bevy::window::ExitCondition;
use bevy::winit::WinitPlugin;
use bevy_reynolds::prelude::*;
use bevy_reynolds::render::{DebugBody, DebugDraw, SteeringDebugPlugin};

fn headless_with_debug_view() -> App {
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins
            .set(RenderPlugin {
                render_creation: WgpuSettings {
                    backends: None,
                    ..default()
                }
                .into(),
                ..default()
            })
            .set(WindowPlugin {
                primary_window: None,
                exit_condition: ExitCondition::DontExit,
                ..default()
            })
            .disable::<WinitPlugin>(),
        SteeringPlugins::default(),
        SteeringDebugPlugin,
    ));
    app
}

#[test]
fn hiding_the_bodies_leaves_the_agent_and_the_games_own_children_shown() {
    let mut app = headless_with_debug_view();
    // An agent the game draws itself, with a child of its own (a sprite, a
    // name tag).
    let agent = app
        .world_mut()
        .spawn((SteeringAgent, SteeringBehavior::Wander, Visibility::Visible))
        .id();
    let own_child = app
        .world_mut()
        .spawn((Transform::default(), Visibility::Inherited, ChildOf(agent)))
        .id();
    for _ in 0..3 {
        app.update();
    }
    let body = app
        .world()
        .get::<DebugBody>(agent)
        .expect("the view draws a body for the agent")
        .0;
    assert_eq!(
        app.world().get::<ChildOf>(body).map(|c| c.parent()),
        Some(agent)
    );

    app.world_mut().resource_mut::<DebugDraw>().bodies = false;
    for _ in 0..2 {
        app.update();
    }
    let visibility = |app: &App, e: Entity| *app.world().get::<Visibility>(e).unwrap();
    assert_eq!(
        visibility(&app, body),
        Visibility::Hidden,
        "the drawn body hides"
    );
    assert_eq!(
        visibility(&app, agent),
        Visibility::Visible,
        "the agent does not"
    );
    assert_eq!(visibility(&app, own_child), Visibility::Inherited);
    let inherited = app.world().get::<InheritedVisibility>(own_child).unwrap();
    assert!(inherited.get(), "the game's child is still shown");

    app.world_mut().resource_mut::<DebugDraw>().bodies = true;
    app.update();
    assert_eq!(visibility(&app, body), Visibility::Inherited);
}

/// The level's mesh draws a navigating agent's route with the wall it goes
/// round; `routes: false` takes the route away and leaves the wall.
#[test]
fn routes_switch_off_and_leave_the_level_drawn() {
    use bevy::time::TimeUpdateStrategy;

    let mut app = headless_with_debug_view();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(
        std::time::Duration::from_secs_f64(1.0 / 60.0),
    ));
    let world = app.world_mut();
    world.spawn(SteeringObstacle::wall(
        Vec2::new(0.0, -200.0),
        Vec2::new(0.0, 200.0),
    ));
    let agent = world
        .spawn((
            Navigate::to(Vec2::new(300.0, 0.0)),
            AgentPosition::new(-300.0, 0.0),
        ))
        .id();
    let following = |app: &App| {
        app.world().get::<NavigationStatus>(agent) == Some(&NavigationStatus::Following)
    };
    for _ in 0..120 {
        if following(&app) {
            break;
        }
        app.update();
    }
    assert!(following(&app), "the agent has its route");
    let level_vertices = |app: &mut App| {
        let world = app.world_mut();
        let mut level = world.query::<(&Name, &Mesh2d)>();
        let handle = level
            .iter(world)
            .find(|(name, _)| name.as_str() == "Steering level")
            .map(|(_, mesh)| mesh.0.clone())
            .expect("the view's level mesh");
        world
            .resource::<Assets<Mesh>>()
            .get(&handle)
            .unwrap()
            .count_vertices()
    };
    app.update();
    let with_route = level_vertices(&mut app);
    app.world_mut().resource_mut::<DebugDraw>().routes = false;
    app.update();
    let without = level_vertices(&mut app);
    assert!(
        0 < without && without < with_route,
        "{with_route} vertices with the route, {without} without"
    );
}
