//! The command line's parsers for the `steering-lab` binary (`main.rs`):
//! each turns one flag's text into its value, or says what was wrong.

use bevy::math::{Vec2, Vec3};
use bevy_reynolds::Combine;
use steering_lab::BehaviorKind;

/// A pair of numbers written `X,Y`.
pub(crate) fn parse_pair(text: &str) -> Result<Vec2, String> {
    match parse_numbers(text)?[..] {
        [x, y] => Ok(Vec2::new(x, y)),
        _ => Err(format!("expected two numbers as X,Y, not '{text}'")),
    }
}

/// Three numbers written `X,Y,Z`.
pub(crate) fn parse_triple(text: &str) -> Result<Vec3, String> {
    match parse_numbers(text)?[..] {
        [x, y, z] => Ok(Vec3::new(x, y, z)),
        _ => Err(format!("expected three numbers as X,Y,Z, not '{text}'")),
    }
}

/// Numbers separated by commas.
pub(crate) fn parse_numbers(text: &str) -> Result<Vec<f32>, String> {
    text.split(',')
        .map(|s| {
            s.trim()
                .parse::<f32>()
                .map_err(|_| format!("'{}' in '{text}' is not a number", s.trim()))
        })
        .collect()
}

/// An obstacle written `circle:X,Y,R`.
pub(crate) fn parse_obstacle(text: &str) -> Result<(Vec2, f32), String> {
    let numbers = text
        .strip_prefix("circle:")
        .ok_or_else(|| format!("expected circle:X,Y,R, not '{text}'"))?;
    match parse_numbers(numbers)?[..] {
        [x, y, r] => Ok((Vec2::new(x, y), r)),
        _ => Err(format!(
            "a circle needs X,Y,R (three numbers), not '{text}'"
        )),
    }
}

/// Four numbers: a wall's ends, or a rectangle's corners.
pub(crate) fn parse_four(text: &str) -> Result<(Vec2, Vec2), String> {
    match parse_numbers(text)?[..] {
        [x0, y0, x1, y1] => Ok((Vec2::new(x0, y0), Vec2::new(x1, y1))),
        _ => Err(format!("expected four numbers X0,Y0,X1,Y1, not '{text}'")),
    }
}

/// Points written `x,y;x,y;...` (one flag's value, not a list of values).
#[derive(Clone, Debug)]
pub(crate) struct Points(pub(crate) Vec<Vec2>);

pub(crate) fn parse_points(text: &str) -> Result<Points, String> {
    text.split(';')
        .filter(|p| !p.trim().is_empty())
        .map(parse_pair)
        .collect::<Result<_, _>>()
        .map(Points)
}

pub(crate) fn parse_combine(text: &str) -> Result<Combine, String> {
    match text {
        "weighted" => Ok(Combine::Weighted),
        "priority" => Ok(Combine::priority()),
        _ => Err(format!(
            "unknown combination '{text}'; choose weighted or priority"
        )),
    }
}

pub(crate) fn parse_behavior(text: &str) -> Result<BehaviorKind, String> {
    BehaviorKind::from_name(text).ok_or_else(|| {
        let names: Vec<_> = BehaviorKind::ALL.iter().map(|k| k.name()).collect();
        format!(
            "unknown behavior '{text}'; choose one of {}",
            names.join(", ")
        )
    })
}

/// A level of the lab, by name.
pub(crate) fn parse_level(name: &str) -> Result<String, String> {
    if steering_lab::levels::NAMES.contains(&name) {
        Ok(name.to_string())
    } else {
        Err(format!(
            "no level '{name}'; there are: {}",
            steering_lab::levels::NAMES.join(", ")
        ))
    }
}
