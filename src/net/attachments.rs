//! What a front end attaches to a connection: at most one value of each type, got back
//! by its type, like the `http` crate's `Extensions`. The net layer keeps them for the
//! connection's life and never looks inside: a client's report card, say, is the front
//! ends' business (`frontend::card`), and this layer knows nothing of it.
//!
//! A connection holds its attachments under a small lock of its own
//! ([`Connection::with_attachments`](super::Connection::with_attachments)), taken for
//! one lookup or one change: never a lock that other clients share.

use std::any::Any;

/// A connection's attachments: at most one value of each type.
#[derive(Default)]
pub struct Attachments {
    /// A handful at most (today one: the report card's slot), so a scan is cheaper than
    /// a map: each step compares a type's id.
    values: Vec<Box<dyn Any + Send + Sync>>,
}

impl Attachments {
    /// The value of type `T`, if one was attached.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<&T> {
        self.values.iter().find_map(|value| value.downcast_ref())
    }

    /// The value of type `T`, to change, if one was attached.
    pub fn get_mut<T: Any + Send + Sync>(&mut self) -> Option<&mut T> {
        self.values
            .iter_mut()
            .find_map(|value| value.downcast_mut())
    }

    /// The value of type `T`, attached first by `make` if there was none.
    pub fn get_or_insert_with<T: Any + Send + Sync>(&mut self, make: impl FnOnce() -> T) -> &mut T {
        let at = match self.values.iter().position(|value| value.is::<T>()) {
            Some(at) => at,
            None => {
                self.values.push(Box::new(make()));
                self.values.len() - 1
            }
        };
        // A value of type `T` sits at `at`: found, or pushed just now.
        self.values[at]
            .downcast_mut()
            .expect("the value at `at` has type T")
    }

    /// Attaches `value`; returns the value of its type it replaces, if any.
    pub fn insert<T: Any + Send + Sync>(&mut self, value: T) -> Option<T> {
        let old = self.remove::<T>();
        self.values.push(Box::new(value));
        old
    }

    /// Takes the value of type `T` off, if one was attached.
    pub fn remove<T: Any + Send + Sync>(&mut self) -> Option<T> {
        let at = self.values.iter().position(|value| value.is::<T>())?;
        self.values
            .swap_remove(at)
            .downcast()
            .ok()
            .map(|value| *value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Default, PartialEq)]
    struct Seat(u32);

    #[derive(Debug, Default, PartialEq)]
    struct Label(&'static str);

    #[test]
    fn each_type_has_one_value_got_back_by_its_type() {
        let mut attachments = Attachments::default();
        assert_eq!(attachments.get::<Seat>(), None);
        assert_eq!(attachments.insert(Seat(1)), None);
        assert_eq!(attachments.insert(Label("Ann")), None);
        assert_eq!(
            attachments.insert(Seat(2)),
            Some(Seat(1)),
            "one value a type"
        );
        assert_eq!(attachments.get::<Seat>(), Some(&Seat(2)));
        attachments.get_or_insert_with(Label::default).0 = "Bob";
        assert_eq!(attachments.get::<Label>(), Some(&Label("Bob")));
        if let Some(seat) = attachments.get_mut::<Seat>() {
            seat.0 += 1;
        }
        assert_eq!(attachments.remove::<Seat>(), Some(Seat(3)));
        assert_eq!(attachments.get::<Seat>(), None);
        assert_eq!(attachments.get_or_insert_with(|| Seat(7)), &mut Seat(7));
    }
}
