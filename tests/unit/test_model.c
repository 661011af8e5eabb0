#include "paratrace/paratrace.h"
#include "test.h"

TEST(status_names) {
  ASSERT_EQ_STR(pt_status_name(PT_ECORRUPT), "ECORRUPT");
  ASSERT_EQ_STR(pt_strerror(PT_OK), "success");
  ASSERT_EQ_STR(pt_strerror(12345), "unknown status");
}

TEST(kind_tables) {
  ASSERT_EQ_STR(pt_event_kind_name(PT_EV_ENTER), "enter");
  ASSERT_EQ_U64(pt_event_kind_from_name("coll_end"), PT_EV_COLL_END);
  ASSERT_EQ_U64(pt_event_kind_from_name("nope"), PT_EV_INVALID);
  ASSERT_EQ_STR(pt_event_slot_name(PT_EV_SEND, PT_ESLOT_PEER), "peer");
  ASSERT_TRUE(pt_event_slot_name(PT_EV_ENTER, PT_ESLOT_PEER) == NULL);
  ASSERT_EQ_U64(pt_event_slot_mask(PT_EV_ENTER), 1u << PT_ESLOT_REF);
  ASSERT_EQ_STR(pt_def_kind_name(PT_DEF_REGION), "region");
  ASSERT_EQ_STR(pt_def_slot_name(PT_DEF_REGION, PT_DSLOT_S3), "file");
  ASSERT_EQ_U64(pt_def_kind_from_name("keyval"), PT_DEF_KEYVAL);
  ASSERT_TRUE(pt_def_slot_mask(PT_DEF_GROUP) & (1u << PT_DSLOT_MEMBERS));
  ASSERT_EQ_STR(pt_coll_op_name(PT_COLL_ALLREDUCE), "allreduce");
  ASSERT_EQ_I64(pt_coll_op_from_name("bcast"), PT_COLL_BCAST);
  ASSERT_EQ_I64(pt_type_from_name("ia"), PT_TYPE_INTS);
  ASSERT_TRUE(PT_EV__COUNT < 64); /* kind masks are 64-bit */
}

TEST(equality) {
  pt_event a, b;
  int64_t xs[3] = {1, 2, 3}, ys[3] = {1, 2, 3};
  pt_attr aa = {7, {PT_TYPE_INTS, 3, {.ints = xs}}};
  pt_attr ba = {7, {PT_TYPE_INTS, 3, {.ints = ys}}};
  pt_event_init(&a, PT_EV_SEND, 10, 2);
  pt_event_init(&b, PT_EV_SEND, 10, 2);
  a.peer = b.peer = 3;
  a.nattrs = b.nattrs = 1;
  a.attrs = &aa;
  b.attrs = &ba;
  ASSERT_TRUE(pt_event_equal(&a, &b));
  ys[2] = 4;
  ASSERT_TRUE(!pt_event_equal(&a, &b));
  pt_def d1, d2;
  pt_def_init(&d1, PT_DEF_REGION, 4);
  pt_def_init(&d2, PT_DEF_REGION, 4);
  d1.name = "main";
  d2.name = "main";
  ASSERT_TRUE(pt_def_equal(&d1, &d2));
  d2.s3 = "x.c";
  ASSERT_TRUE(!pt_def_equal(&d1, &d2));
}

int main(void) {
  RUN(status_names);
  RUN(kind_tables);
  RUN(equality);
  return test_summary();
}
