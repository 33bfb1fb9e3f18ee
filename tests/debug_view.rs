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
        .spawn((SteeringAgent, Behavior::Wander, Visibility::Visible))
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
