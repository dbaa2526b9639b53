-- 流程管理 › 模型管理 (spec §7 Workflow model; contract §19 flow_model and its buttons): the models
-- drawn in the console's BPMN designer, deployed from there. The parent group is shared with the
-- other workflow screens; whichever seed runs first creates it, exactly as agreed, the other skips.
insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1800, 0, 'flow', '流程管理', 'menu', '/flow', 'apartment', 60, 1, 0, 1)
on conflict do nothing;

insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open) values
  (1830, 1800, 'flow_model', '模型管理', 'menu', '/flow/model', 'deployment-unit', 1, 1, 0, 1),
  (1831, 1830, 'flow_model_create', '新建', 'add', '/api/blade-flow/model/submit', 'plus', 1, 2, 1, 1),
  (1832, 1830, 'flow_model_update', '设计', 'edit', '/api/blade-flow/model/submit', 'form', 2, 2, 2, 1),
  (1833, 1830, 'flow_model_deploy', '部署', 'deploy', '/api/blade-flow/model/deploy', 'cloud-upload', 3, 2, 2, 1),
  (1834, 1830, 'flow_model_download', '下载', 'download', '/api/blade-flow/model/detail', 'download', 4, 2, 2, 1),
  (1835, 1830, 'flow_model_delete', '删除', 'delete', '/api/blade-flow/model/remove', 'delete', 5, 2, 3, 1)
on conflict do nothing;

-- A role that holds the 流程管理 group gets the screen and its buttons, as a grant saved from the
-- dialog would. Ids in the server's layout with worker bits 1021, which no server process draws.
insert into sys_role_menu (id, menu_id, role_id)
select (((floor(extract(epoch from clock_timestamp()) * 1000)::bigint - 1704067200000) << 22)
        | (1021 << 12) | row_number() over ()),
       m.id, g.role_id
  from (select distinct role_id from sys_role_menu where menu_id = 1800) as g
  cross join sys_menu m
 where m.id between 1830 and 1835 and m.is_deleted = 0
   and not exists (select 1 from sys_role_menu x where x.role_id = g.role_id and x.menu_id = m.id);
