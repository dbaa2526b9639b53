-- Owner notifications under 运行控制 (spec §7 PMS messagequeue and sms): the outgoing SMS queue and
-- the record of every SMS sent. Both are plain-resource screens; their standard buttons
-- (messagequeue_add|_edit|_delete|_view, pms_sms_add|…) are seeded from the definitions.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (760, 700, 'messagequeue', '消息队列', 'menu', '/operation/messagequeue', 'message', 40, 1, 0, 1),
  (770, 700, 'pms_sms', '短信记录', 'menu', '/operation/sms', 'notification', 50, 1, 0, 1);

insert into sys_top_menu_setting (id, top_menu_id, menu_id)
select 100 + m.id, 4, m.id from sys_menu m where m.id in (760, 770);

insert into sys_dict (id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed) values
  (1480, 0, 'message_state', '-1', '消息状态', 'Message state', 45, 0),
  (1481, 1480, 'message_state', '1', '待发送', 'Queued', 1, 0),
  (1482, 1480, 'message_state', '2', '重试中', 'Retrying', 2, 0),
  (1483, 1480, 'message_state', '3', '已发送', 'Sent', 3, 0),
  (1484, 1480, 'message_state', '4', '发送失败', 'Failed', 4, 0);
