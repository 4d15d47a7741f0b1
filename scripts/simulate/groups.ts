/** A producer's message group id, as long as the ones the simulation and the bench assume (13 characters). */
export const groupId = (group: number): string => `producer-${String(group).padStart(4, '0')}`;
