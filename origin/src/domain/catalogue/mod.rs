//! The catalogue as the member sees it: the goods card every list, the cart and the favourites
//! show (`card`), and who may buy controlled goods (`controlled`).

pub mod card;
pub mod controlled;
