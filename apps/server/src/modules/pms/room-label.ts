/**
 * A room's label as operators say it: the areas above it without the top one (the park), then the
 * room, e.g. "2号楼 305" or "2号楼 1单元 305". A room hung directly under a top area keeps that
 * area's name ("阳光公寓 305"), so a bare "305" never stands for four rooms.
 *
 * One SQL expression over the room alias `r`, so lists join the label in the same query as their
 * rows. The area part is the database function pms_area_label (migrations/after-resources/041),
 * whose lookup is planned once per session rather than in every statement that shows rooms.
 */
export const roomLabelSql = (room = "r") =>
  `concat_ws(' ', pms_area_label(${room}.area_id), ${room}.room_name)`;
