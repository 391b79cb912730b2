//! Two rooms in a circle.
pub mod event;
pub mod view;
