// Where the OneRoster 1.2 bindings' objects are read: the base path of each service, under the one
// they share.
export const ONEROSTER_PATH = '/ims/oneroster/';
export const ROSTERING_PATH = '/ims/oneroster/rostering/v1p2';
export const GRADEBOOK_PATH = '/ims/oneroster/gradebook/v1p2';
