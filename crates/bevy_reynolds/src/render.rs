//! Debug drawing (feature `render`): agent bodies, trails, the radii around
//! a target, velocity and desired-velocity arrows, each crowd agent's
//! soonest meeting, and a level's obstacles, walls, paths, each follower's
//! aim, each navigating agent's route and each agent's avoidance
//! look-ahead, tessellated with lyon.
//!
//! It stays cheap with many agents: every body shares one mesh, and one
//! material per color, so Bevy batches them; all trails are one mesh, and
//! all arrows another, whose buffers are rewritten in place rather than
//! rebuilt as new entities.
//!
//! ```no_run
//! # use bevy::prelude::*;
//! # use bevy_reynolds::prelude::*;
//! # use bevy_reynolds::render::*;
//! App::new()
//!     .add_plugins((DefaultPlugins, SteeringPlugins::default(), SteeringDebugPlugin))
//!     .insert_resource(DebugDraw { velocity: true, ..default() });
//! ```

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology, VertexAttributeValues};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_prototype_lyon::prelude::*;

use reynolds::level::Shape as ObstacleShape;

use reynolds::crowd::time_to_collision;

use crate::agent::{DesiredVelocity, Position, SteeringAgent, SteeringSettings, Trail, Velocity};
use crate::crowd::AvoidAgents;
use crate::flocking::NeighborGrid;
use crate::formation::FormationPlace;
use crate::level::{AvoidanceMemory, FollowPath, ObstacleIndex};
use crate::navigation::{NavigationRoute, NavigationStatus};

/// Draws agents and what steers them. Adds lyon's `ShapePlugin` if the app
/// does not have it yet.
pub struct SteeringDebugPlugin;

/// What [`SteeringDebugPlugin`] draws, each switchable at run time.
#[derive(Resource, Reflect, Debug, Clone, PartialEq)]
#[reflect(Resource, Debug, Default, PartialEq)]
pub struct DebugDraw {
    /// Each agent's body: the chapter's triangle, turned to its heading.
    pub bodies: bool,
    /// Each [`Trail`], as dots.
    pub trails: bool,
    /// The slowing and panic circles around entities with [`ShowRadii`].
    pub radii: bool,
    /// An arrow along each agent's velocity.
    pub velocity: bool,
    /// An arrow along each agent's desired velocity.
    pub desired: bool,
    /// Seconds of motion an arrow shows: its length is the velocity times this.
    pub arrow_seconds: f32,
    /// Radius of a trail dot, in pixels.
    pub dot_radius: f32,
    /// Color of the radii circles.
    pub radii_color: Color,
    /// Every [`Obstacle`](crate::Obstacle) (as the plugin indexed it this
    /// step), every [`FollowPath`]'s path and the point its follower aims
    /// at, what is left of each [`Navigate`](crate::Navigate) agent's
    /// route, and each formation member's place (a dot), in the agent's
    /// color.
    pub level: bool,
    /// The line each agent looks along for obstacles, as long as it looks.
    pub look_ahead: bool,
    /// Each [`AvoidAgents`] agent's soonest meeting: a line to where it
    /// would be when its body touches another's, if both kept their
    /// velocities, and a dot where they would touch.
    pub foresight: bool,
    /// Color of obstacles and walls.
    pub obstacle_color: Color,
    /// Color of paths.
    pub path_color: Color,
}

impl Default for DebugDraw {
    fn default() -> Self {
        Self {
            bodies: true,
            trails: true,
            radii: true,
            velocity: false,
            desired: false,
            arrow_seconds: 0.25,
            dot_radius: 1.5,
            radii_color: Color::srgb_u8(70, 78, 90),
            level: true,
            look_ahead: false,
            foresight: false,
            obstacle_color: Color::srgb_u8(120, 108, 92),
            path_color: Color::srgb_u8(200, 170, 60),
        }
    }
}

/// An agent's color in the debug view. Agents without one are white.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct AgentColor(pub Color);

impl Default for AgentColor {
    fn default() -> Self {
        Self(Color::WHITE)
    }
}

/// Draws the slowing and panic circles of [`SteeringSettings`] around this
/// entity (a target such as the mouse). It needs a [`Transform`].
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[reflect(Component, Debug, Default, PartialEq)]
#[require(Transform, Visibility)]
pub struct ShowRadii;

/// The chapter's agent shape: a triangle around its center, facing along x.
pub const BODY: [Vec2; 3] = [
    Vec2::new(12.0, 0.0),
    Vec2::new(-9.0, -7.0),
    Vec2::new(-9.0, 7.0),
];

/// The shared body mesh, and one material per color.
#[derive(Resource)]
struct BodyAssets {
    mesh: Handle<Mesh>,
    materials: HashMap<[u8; 4], Handle<ColorMaterial>>,
}

/// The entity drawing every trail, the one drawing every arrow, and the
/// one drawing the level.
#[derive(Component)]
struct TrailDots;
#[derive(Component)]
struct Arrows;
#[derive(Component)]
struct LevelLines;

/// The circle outlines under a [`ShowRadii`] entity, and the radii they
/// were built for.
#[derive(Component)]
struct RadiiOutlines {
    built_for: (f32, f32, [u8; 4]),
}

impl Plugin for SteeringDebugPlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<ShapePlugin>() {
            app.add_plugins(ShapePlugin);
        }
        app.register_type::<DebugDraw>()
            .register_type::<AgentColor>()
            .register_type::<ShowRadii>()
            .init_resource::<DebugDraw>()
            .add_systems(Startup, setup)
            .add_systems(
                PostUpdate,
                (
                    record_desired,
                    attach_bodies,
                    recolor_bodies,
                    show_bodies,
                    draw_trails,
                    draw_arrows,
                    draw_radii,
                    draw_level,
                )
                    .before(bevy::transform::TransformSystems::Propagate),
            );
    }
}

fn body_mesh() -> Mesh {
    // Tessellate the triangle with lyon, as any shape would be.
    let mut path = tess::path::Path::builder();
    path.begin(tess::math::point(BODY[0].x, BODY[0].y));
    for p in &BODY[1..] {
        path.line_to(tess::math::point(p.x, p.y));
    }
    path.close();
    let path = path.build();
    let mut buffers: tess::VertexBuffers<[f32; 3], u32> = tess::VertexBuffers::new();
    let result = tess::FillTessellator::new().tessellate_path(
        &path,
        &FillOptions::default(),
        &mut tess::BuffersBuilder::new(&mut buffers, |v: tess::FillVertex| {
            [v.position().x, v.position().y, 0.0]
        }),
    );
    if let Err(error) = result {
        error!("could not tessellate the agent body: {error:?}");
    }
    let mut mesh = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    );
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, buffers.vertices);
    mesh.insert_indices(Indices::U32(buffers.indices));
    mesh
}

/// A mesh of vertex-colored triangles, rewritten in place each time: at
/// first one triangle of no area, drawing nothing. Never empty: the
/// renderer allocates no room for a mesh with no vertices, and copying the
/// next drawing into it logged "Use-after-free: attempted to copy element
/// data for an unallocated key" as each demo started.
fn dynamic_mesh() -> Mesh {
    let mut mesh = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    );
    mesh.insert_attribute(Mesh::ATTRIBUTE_POSITION, vec![[0.0f32; 3]; 3]);
    mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, vec![[0.0f32; 4]; 3]);
    mesh.insert_indices(Indices::U32(vec![0, 1, 2]));
    mesh
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.insert_resource(BodyAssets {
        mesh: meshes.add(body_mesh()),
        materials: HashMap::default(),
    });
    // White, so the vertex colors show as they are.
    let white = materials.add(ColorMaterial::from_color(Color::WHITE));
    commands.spawn((
        Name::new("Steering trails"),
        TrailDots,
        Mesh2d(meshes.add(dynamic_mesh())),
        MeshMaterial2d(white.clone()),
        Transform::from_xyz(0.0, 0.0, -0.5),
        Visibility::Hidden,
    ));
    commands.spawn((
        Name::new("Steering arrows"),
        Arrows,
        Mesh2d(meshes.add(dynamic_mesh())),
        MeshMaterial2d(white.clone()),
        Transform::from_xyz(0.0, 0.0, 0.5),
        Visibility::Hidden,
    ));
    commands.spawn((
        Name::new("Steering level"),
        LevelLines,
        Mesh2d(meshes.add(dynamic_mesh())),
        MeshMaterial2d(white),
        Transform::from_xyz(0.0, 0.0, -0.6),
        Visibility::Hidden,
    ));
}

fn color_key(color: Color) -> [u8; 4] {
    color.to_srgba().to_u8_array()
}

fn material_for(
    body: &mut BodyAssets,
    materials: &mut Assets<ColorMaterial>,
    color: Color,
) -> Handle<ColorMaterial> {
    body.materials
        .entry(color_key(color))
        .or_insert_with(|| materials.add(ColorMaterial::from_color(color)))
        .clone()
}

/// The entity drawing an agent's body: a child of the agent, so that
/// hiding bodies hides only what this view drew, never the game's own
/// sprite or children on the agent.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct DebugBody(pub Entity);

/// Marks the child entities drawing bodies.
#[derive(Component)]
struct BodyOf;

fn attach_bodies(
    mut commands: Commands,
    draw: Res<DebugDraw>,
    mut body: ResMut<BodyAssets>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    agents: Query<(Entity, Option<&AgentColor>), (With<SteeringAgent>, Without<DebugBody>)>,
) {
    for (agent, color) in &agents {
        let color = color.copied().unwrap_or_default().0;
        let material = material_for(&mut body, &mut materials, color);
        let child = commands
            .spawn((
                BodyOf,
                Mesh2d(body.mesh.clone()),
                MeshMaterial2d(material),
                Transform::default(),
                body_visibility(&draw),
                ChildOf(agent),
            ))
            .id();
        // Drawn under the agent, which needs visibility of its own for the
        // child to inherit (the default, shown, if the game gave none).
        commands
            .entity(agent)
            .insert(DebugBody(child))
            .insert_if_new(Visibility::default());
    }
}

fn body_visibility(draw: &DebugDraw) -> Visibility {
    if draw.bodies {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    }
}

fn recolor_bodies(
    mut body: ResMut<BodyAssets>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    agents: Query<(&AgentColor, &DebugBody), Changed<AgentColor>>,
    mut bodies: Query<&mut MeshMaterial2d<ColorMaterial>, With<BodyOf>>,
) {
    for (color, DebugBody(child)) in &agents {
        let handle = material_for(&mut body, &mut materials, color.0);
        if let Ok(mut material) = bodies.get_mut(*child)
            && material.0 != handle
        {
            material.0 = handle;
        }
    }
}

fn show_bodies(draw: Res<DebugDraw>, mut bodies: Query<&mut Visibility, With<BodyOf>>) {
    if !draw.is_changed() {
        return;
    }
    let visibility = body_visibility(&draw);
    for mut v in &mut bodies {
        v.set_if_neq(visibility);
    }
}

/// Reused buffers of a vertex-colored triangle mesh.
#[derive(Default)]
struct MeshBuffers {
    positions: Vec<[f32; 3]>,
    colors: Vec<[f32; 4]>,
    indices: Vec<u32>,
}

impl MeshBuffers {
    fn clear(&mut self) {
        self.positions.clear();
        self.colors.clear();
        self.indices.clear();
    }

    fn quad(&mut self, corners: [Vec2; 4], color: [f32; 4]) {
        let base = self.positions.len() as u32;
        self.positions.extend(corners.map(|c| [c.x, c.y, 0.0]));
        self.colors.extend([color; 4]);
        self.indices
            .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }

    fn triangle(&mut self, corners: [Vec2; 3], color: [f32; 4]) {
        let base = self.positions.len() as u32;
        self.positions.extend(corners.map(|c| [c.x, c.y, 0.0]));
        self.colors.extend([color; 3]);
        self.indices.extend([base, base + 1, base + 2]);
    }

    /// An arrow from `from` to `to`, `width` wide, with a head.
    fn arrow(&mut self, from: Vec2, to: Vec2, width: f32, color: [f32; 4]) {
        let along = to - from;
        let length = along.length();
        if !length.is_finite() || length < 1.0 {
            return;
        }
        let dir = along / length;
        let side = dir.perp() * (width * 0.5);
        let head = (width * 4.0).min(length * 0.5);
        let neck = to - dir * head;
        self.quad([from - side, neck - side, neck + side, from + side], color);
        self.triangle([neck - side * 3.0, to, neck + side * 3.0], color);
    }

    /// A line from `a` to `b`, `width` wide.
    fn line(&mut self, a: Vec2, b: Vec2, width: f32, color: [f32; 4]) {
        let along = b - a;
        if !along.is_finite() {
            return;
        }
        let side = along.normalize_or_zero().perp() * (width * 0.5);
        self.quad([a - side, b - side, b + side, a + side], color);
    }

    /// A filled disc, as a fan of `segments` triangles.
    fn disc(&mut self, center: Vec2, radius: f32, segments: u32, color: [f32; 4]) {
        if !(center.is_finite() && radius.is_finite()) {
            return;
        }
        let at = |i: u32| {
            center + Vec2::from_angle(i as f32 / segments as f32 * std::f32::consts::TAU) * radius
        };
        for i in 0..segments {
            self.triangle([center, at(i), at(i + 1)], color);
        }
    }

    /// Writes the buffers into the mesh of `handle`, reusing its attribute
    /// storage. An empty drawing hides the mesh and leaves it as it was,
    /// since the renderer cannot allocate room for a mesh with no vertices.
    fn write(
        &self,
        meshes: &mut Assets<Mesh>,
        handle: &Handle<Mesh>,
        mut visibility: Mut<Visibility>,
    ) {
        if self.indices.is_empty() {
            visibility.set_if_neq(Visibility::Hidden);
            return;
        }
        visibility.set_if_neq(Visibility::Inherited);
        if let Some(mut mesh) = meshes.get_mut(handle) {
            self.write_to(&mut mesh);
        }
    }

    fn write_to(&self, mesh: &mut Mesh) {
        if let Some(VertexAttributeValues::Float32x3(positions)) =
            mesh.attribute_mut(Mesh::ATTRIBUTE_POSITION)
        {
            positions.clear();
            positions.extend_from_slice(&self.positions);
        }
        if let Some(VertexAttributeValues::Float32x4(colors)) =
            mesh.attribute_mut(Mesh::ATTRIBUTE_COLOR)
        {
            colors.clear();
            colors.extend_from_slice(&self.colors);
        }
        if let Some(Indices::U32(indices)) = mesh.indices_mut() {
            indices.clear();
            indices.extend_from_slice(&self.indices);
        }
    }
}

fn linear(color: Color) -> [f32; 4] {
    color.to_linear().to_f32_array()
}

fn draw_trails(
    draw: Res<DebugDraw>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut target: Query<(&Mesh2d, &mut Visibility), With<TrailDots>>,
    changed: Query<(), Or<(Changed<Trail>, Changed<AgentColor>)>>,
    trails: Query<(&Trail, Option<&AgentColor>)>,
    mut buffers: Local<MeshBuffers>,
) {
    if changed.is_empty() && !draw.is_changed() {
        return;
    }
    let Ok((Mesh2d(handle), visibility)) = target.single_mut() else {
        return;
    };
    buffers.clear();
    if draw.trails {
        let r = draw.dot_radius.max(0.0);
        for (trail, color) in &trails {
            let color = linear(color.copied().unwrap_or_default().0);
            for p in &trail.points {
                buffers.quad(
                    [
                        *p + Vec2::new(-r, -r),
                        *p + Vec2::new(r, -r),
                        *p + Vec2::new(r, r),
                        *p + Vec2::new(-r, r),
                    ],
                    color,
                );
            }
        }
    }
    buffers.write(&mut meshes, handle, visibility);
}

/// While desired velocities are drawn, every agent records its
/// [`DesiredVelocity`] (a debug output the step only writes where asked).
fn record_desired(
    mut commands: Commands,
    draw: Res<DebugDraw>,
    agents: Query<Entity, (With<SteeringAgent>, Without<DesiredVelocity>)>,
) {
    if draw.desired {
        for agent in &agents {
            commands.entity(agent).insert(DesiredVelocity::default());
        }
    }
}

fn draw_arrows(
    draw: Res<DebugDraw>,
    grid: Option<Res<NeighborGrid>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut target: Query<(&Mesh2d, &mut Visibility), With<Arrows>>,
    agents: Query<
        (
            Entity,
            &Transform,
            &Velocity,
            Option<&DesiredVelocity>,
            Option<&AgentColor>,
            Option<&AvoidAgents>,
        ),
        With<SteeringAgent>,
    >,
    mut buffers: Local<MeshBuffers>,
    mut drew_last_frame: Local<bool>,
) {
    let any = draw.velocity || draw.desired || draw.foresight;
    if !any && !*drew_last_frame {
        return;
    }
    *drew_last_frame = any;
    let Ok((Mesh2d(handle), visibility)) = target.single_mut() else {
        return;
    };
    buffers.clear();
    let seconds = draw.arrow_seconds;
    for (entity, transform, vel, desired, color, avoids) in &agents {
        let from = transform.translation.truncate();
        let color = color.copied().unwrap_or_default().0;
        if draw.foresight
            && let (Some(avoid), Some(grid)) = (avoids, grid.as_deref())
            && let Some((mine, theirs)) = soonest_meeting(grid, entity, avoid)
        {
            let faint = linear(color.with_alpha(0.6));
            buffers.line(mine.0, mine.1, 1.0, faint);
            buffers.line(theirs.0, theirs.1, 1.0, faint);
            buffers.disc((mine.1 + theirs.1) * 0.5, 2.5, 8, linear(color));
        }
        if draw.velocity {
            buffers.arrow(from, from + vel.0 * seconds, 1.5, linear(color));
        }
        if draw.desired
            && let Some(desired) = desired
        {
            buffers.arrow(
                from,
                from + desired.0 * seconds,
                1.0,
                linear(color.with_alpha(0.5)),
            );
        }
    }
    buffers.write(&mut meshes, handle, visibility);
}

/// Where an avoider and the neighbor it would touch soonest (within its
/// horizon, if both kept their velocities) are, and would be then: as the
/// grid has them at the step's start.
type Meeting = ((Vec2, Vec2), (Vec2, Vec2));

fn soonest_meeting(grid: &NeighborGrid, entity: Entity, avoid: &AvoidAgents) -> Option<Meeting> {
    let slot = grid.slot_of(entity)?;
    let (at, vel, radius) = grid.agent(slot);
    let rules = avoid.rules.sanitized();
    let reach = rules.reach(vel.length(), radius, grid.largest_radius());
    let mut soonest: Option<(f32, Vec2, Vec2)> = None;
    grid.for_each_within(at, reach, |other, offset, other_vel| {
        if other == slot {
            return;
        }
        let radius_sum = radius + grid.radius(other);
        if let Some(t) = time_to_collision(-offset, vel - other_vel, radius_sum)
            && t <= rules.horizon
            && soonest.is_none_or(|(s, ..)| t < s)
        {
            soonest = Some((t, at + offset, other_vel));
        }
    });
    soonest.map(|(t, there, other_vel)| ((at, at + vel * t), (there, there + other_vel * t)))
}

fn draw_radii(
    mut commands: Commands,
    draw: Res<DebugDraw>,
    settings: Res<SteeringSettings>,
    targets: Query<(Entity, Option<&Children>), With<ShowRadii>>,
    mut outlines: Query<(&RadiiOutlines, &mut Shape, &mut Visibility)>,
) {
    let radii = (
        settings.agent.slowing_radius.max(0.0),
        settings.agent.panic_radius.max(0.0),
        color_key(draw.radii_color),
    );
    let circles = |(slow, panic, _): (f32, f32, [u8; 4])| {
        let mut builder = ShapeBuilder::new();
        for radius in [slow, panic] {
            if radius.is_finite() && radius > 0.0 {
                builder = builder.add(&shapes::Circle {
                    radius,
                    center: Vec2::ZERO,
                });
            }
        }
        builder.stroke((draw.radii_color, 1.0)).build()
    };
    let visibility = if draw.radii {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    for (entity, children) in &targets {
        let existing = children
            .into_iter()
            .flatten()
            .find(|child| outlines.contains(**child));
        match existing {
            Some(child) => {
                let Ok((built, mut shape, mut v)) = outlines.get_mut(*child) else {
                    continue;
                };
                v.set_if_neq(visibility);
                if built.built_for != radii {
                    *shape = circles(radii);
                    commands
                        .entity(*child)
                        .insert(RadiiOutlines { built_for: radii });
                }
            }
            None => {
                commands.entity(entity).with_child((
                    circles(radii),
                    RadiiOutlines { built_for: radii },
                    visibility,
                    Transform::from_xyz(0.0, 0.0, -0.2),
                ));
            }
        }
    }
}

/// The level: obstacles and walls, paths and each follower's aim, and,
/// if asked, each agent's look-ahead. Redrawn every frame, since obstacles
/// may move.
#[allow(clippy::type_complexity)]
fn draw_level(
    draw: Res<DebugDraw>,
    index: Option<Res<ObstacleIndex>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut target: Query<(&Mesh2d, &mut Visibility), With<LevelLines>>,
    followers: Query<(&FollowPath, Option<&AgentColor>)>,
    lookers: Query<(&Position, &AvoidanceMemory), With<SteeringAgent>>,
    travellers: Query<(
        &Position,
        &NavigationRoute,
        &NavigationStatus,
        Option<&AgentColor>,
    )>,
    members: Query<(&FormationPlace, Option<&AgentColor>)>,
    mut buffers: Local<MeshBuffers>,
    mut drawn: Local<Vec<usize>>,
) {
    let Ok((Mesh2d(handle), visibility)) = target.single_mut() else {
        return;
    };
    buffers.clear();
    drawn.clear();
    if draw.level {
        let rock = linear(draw.obstacle_color);
        // (None without the level's plugin.)
        for indexed in index.iter().flat_map(|index| index.shapes()) {
            match indexed.shape {
                ObstacleShape::Circle { center, radius } => buffers.disc(center, radius, 32, rock),
                ObstacleShape::Wall { a, b } => buffers.line(a, b, 4.0, rock),
            }
        }
        let road = linear(draw.path_color);
        // Each path once, however many follow it.
        for (follow, color) in &followers {
            let path = &*follow.path;
            // Told apart by address: one shared path is one Arc.
            let address = std::ptr::from_ref(path).addr();
            if !drawn.contains(&address) {
                drawn.push(address);
                let points = path.points();
                let ends = if path.is_looped() {
                    points.len()
                } else {
                    points.len().saturating_sub(1)
                };
                for i in 0..ends {
                    buffers.line(points[i], points[(i + 1) % points.len()], 1.5, road);
                }
            }
            let color = linear(color.copied().unwrap_or_default().0);
            buffers.disc(follow.aim, 3.0, 8, color);
        }
        for (pos, route, status, color) in &travellers {
            let ahead = route.points.get(route.corner..).unwrap_or_default();
            if *status == NavigationStatus::Arrived || ahead.is_empty() {
                continue;
            }
            let color = linear(color.copied().unwrap_or_default().0);
            let mut from = pos.0;
            for corner in ahead {
                buffers.line(from, *corner, 1.5, color);
                from = *corner;
            }
            buffers.disc(from, 4.0, 12, color);
        }
        for (place, color) in &members {
            if let Some((at, _)) = place.place {
                let color = linear(color.copied().unwrap_or_default().0);
                buffers.disc(at, 2.0, 8, color);
            }
        }
    }
    if draw.look_ahead {
        let color = linear(draw.radii_color);
        for (pos, memory) in &lookers {
            if memory.look_ahead > 0.0 {
                buffers.line(
                    pos.0,
                    pos.0 + memory.looking * memory.look_ahead,
                    1.0,
                    color,
                );
            }
        }
    }
    buffers.write(&mut meshes, handle, visibility);
}
