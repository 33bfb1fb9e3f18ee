//! The debug view on the XY plane (2D games): bodies as meshes, the radii
//! as lyon shapes, and the scene painted into three meshes (trails, arrows,
//! the level) whose buffers are rewritten in place each frame.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology, VertexAttributeValues};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_prototype_lyon::prelude::*;

use super::scene::{ArrowScene, Canvas, LevelScene, TrailScene};
use super::{AgentColor, BODY, DebugDraw, ShowRadii};
use crate::agent::{AgentTrail, SteeringAgent, SteeringSettings};

/// The flat view's systems, in `PostUpdate` before transforms propagate.
pub(super) fn add_systems<M>(app: &mut App, when: impl SystemCondition<M>) {
    if !app.is_plugin_added::<ShapePlugin>() {
        app.add_plugins(ShapePlugin);
    }
    app.add_systems(Startup, setup).add_systems(
        PostUpdate,
        (
            attach_bodies,
            recolor_bodies,
            show_bodies,
            draw_trails,
            draw_arrows,
            draw_radii,
            draw_level,
        )
            .run_if(when)
            .before(bevy::transform::TransformSystems::Propagate),
    );
}

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

impl Canvas for MeshBuffers {
    /// An arrow from `from` to `to`, `width` wide, with a head.
    fn arrow(&mut self, from: Vec2, to: Vec2, width: f32, color: LinearRgba) {
        let color = color.to_f32_array();
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
    fn line(&mut self, a: Vec2, b: Vec2, width: f32, color: LinearRgba) {
        let color = color.to_f32_array();
        let along = b - a;
        if !along.is_finite() {
            return;
        }
        let side = along.normalize_or_zero().perp() * (width * 0.5);
        self.quad([a - side, b - side, b + side, a + side], color);
    }

    /// A filled disc, as a fan of `segments` triangles.
    fn disc(&mut self, center: Vec2, radius: f32, segments: u32, color: LinearRgba) {
        let color = color.to_f32_array();
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

    fn trail<'a>(
        &mut self,
        points: impl Iterator<Item = &'a Vec2>,
        radius: f32,
        color: LinearRgba,
    ) {
        let color = color.to_f32_array();
        let r = radius;
        for p in points {
            self.quad(
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

fn draw_trails(
    scene: TrailScene,
    mut meshes: ResMut<Assets<Mesh>>,
    mut target: Query<(&Mesh2d, &mut Visibility), With<TrailDots>>,
    changed: Query<(), Or<(Changed<AgentTrail>, Changed<AgentColor>)>>,
    mut buffers: Local<MeshBuffers>,
) {
    if changed.is_empty() && !scene.draw.is_changed() {
        return;
    }
    repaint(&mut target, &mut meshes, &mut buffers, |b| scene.paint(b));
}

fn draw_arrows(
    scene: ArrowScene,
    mut meshes: ResMut<Assets<Mesh>>,
    mut target: Query<(&Mesh2d, &mut Visibility), With<Arrows>>,
    mut buffers: Local<MeshBuffers>,
    mut drew_last_frame: Local<bool>,
) {
    let any = scene.shown();
    if !any && !*drew_last_frame {
        return;
    }
    *drew_last_frame = any;
    repaint(&mut target, &mut meshes, &mut buffers, |b| scene.paint(b));
}

/// Redrawn every frame, since obstacles may move.
fn draw_level(
    scene: LevelScene,
    mut meshes: ResMut<Assets<Mesh>>,
    mut target: Query<(&Mesh2d, &mut Visibility), With<LevelLines>>,
    mut buffers: Local<MeshBuffers>,
    mut drawn: Local<Vec<usize>>,
) {
    repaint(&mut target, &mut meshes, &mut buffers, |b| {
        scene.paint(b, &mut drawn);
    });
}

/// Paints afresh into the one mesh `target` draws.
fn repaint<Marker: Component>(
    target: &mut Query<(&Mesh2d, &mut Visibility), With<Marker>>,
    meshes: &mut Assets<Mesh>,
    buffers: &mut MeshBuffers,
    paint: impl FnOnce(&mut MeshBuffers),
) {
    let Ok((Mesh2d(handle), visibility)) = target.single_mut() else {
        return;
    };
    buffers.clear();
    paint(buffers);
    buffers.write(meshes, handle, visibility);
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
