/**
 * The nestedItem route's {collectionNestedID} for a nested item not created yet: item ids are
 * 24 hexadecimal digits, so `new` is never one.
 */
export const newNestedItemID = 'new';
