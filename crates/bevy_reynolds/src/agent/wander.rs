//! Wandering's state: the angle a wanderer heads along, and its own stream
//! of random numbers, seeded from the plugin's seed. Planar: an angle on
//! the plane.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use rand::SeedableRng;
use rand::rngs::Xoshiro128PlusPlus;

use super::settings::SteeringSeed;

/// The angle a wanderer heads along, in radians, drifting by random steps.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Default, Deref, DerefMut)]
#[reflect(Component, Debug, Default, PartialEq)]
pub struct WanderAngle(pub f32);

/// An agent's own stream of random numbers for wandering.
///
/// By default it is seeded when added, from the plugin's seed and the order
/// in which agents were spawned, so the same seed and the same spawns give
/// bit-identical runs. [`WanderRng::from_seed`] seeds one by hand.
#[derive(Component, Reflect, Debug, Clone, Default)]
#[reflect(Component, Debug, Default)]
#[component(on_add = seed_wander_rng)]
pub struct WanderRng {
    seeded: bool,
    #[reflect(ignore)]
    rng: StreamRng,
}

impl WanderRng {
    /// A stream seeded with `seed`, left as it is when added.
    pub fn from_seed(seed: u64) -> Self {
        Self {
            seeded: true,
            rng: StreamRng(Xoshiro128PlusPlus::seed_from_u64(seed)),
        }
    }

    /// The next random number from -1 to 1, uniform, as the model's
    /// `randRange(-1, 1)`.
    pub fn unit(&mut self) -> f32 {
        use rand::RngExt;
        self.rng.0.random_range(-1.0..1.0)
    }
}

/// The random generator behind [`WanderRng`]: Xoshiro128++, 16 bytes a
/// agent, fast, and reproducible from its seed.
#[derive(Debug, Clone)]
struct StreamRng(Xoshiro128PlusPlus);

impl Default for StreamRng {
    fn default() -> Self {
        Self(Xoshiro128PlusPlus::seed_from_u64(0))
    }
}

fn seed_wander_rng(mut world: DeferredWorld, ctx: HookContext) {
    if world
        .get::<WanderRng>(ctx.entity)
        .is_none_or(|rng| rng.seeded)
    {
        return;
    }
    let seed = match world.get_resource_mut::<SteeringSeed>() {
        Some(mut streams) => streams.next_stream(),
        // Without the plugin, fall back to the entity, which is still
        // reproducible for the same spawns.
        None => ctx.entity.to_bits(),
    };
    if let Some(mut rng) = world.get_mut::<WanderRng>(ctx.entity) {
        *rng = WanderRng::from_seed(seed);
    }
}
