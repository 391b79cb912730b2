//! Events, which render a view.
use super::view::{CardView, render};

pub struct Event(pub CardView);

pub fn show(e: &Event) -> String {
    render(&e.0)
}
