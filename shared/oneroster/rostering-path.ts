// Where the OneRoster 1.2 Rostering binding's objects are read: in a module of its own, so that the audit
// wiring every route loads can tell these paths apart without loading the objects.
export const ROSTERING_PATH = '/ims/oneroster/rostering/v1p2';
