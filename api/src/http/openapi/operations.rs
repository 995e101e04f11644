//! The operations of the document, for the passes that visit each one.

use utoipa::openapi::path::Operation;

/// Every operation of the document.
pub fn operations_mut(
    openapi: &mut utoipa::openapi::OpenApi,
) -> impl Iterator<Item = &mut Operation> {
    openapi
        .paths
        .paths
        .values_mut()
        .flat_map(item_operations_mut)
}

/// Every operation of one path.
pub fn item_operations_mut(
    item: &mut utoipa::openapi::PathItem,
) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.patch,
    ]
    .into_iter()
    .flatten()
}
